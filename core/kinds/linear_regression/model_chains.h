// Which chain a round trains. The rounds are dealt to the model's K chains
// in turn: round r (1, 2, ...) is step (r - 1) / K + 1 of chain (r - 1) mod K.
// A respondent's chain is thus fixed by when they answer, as their round
// already is: the public state of round r is chain (r - 1) mod K's
// coefficients, the report ({round, component, value}) and the client are
// unchanged, and a round still takes exactly `batch` reports. Dealing in
// turn rather than in blocks gives every chain early and late respondents
// alike, so a drift in who answers when does not set the chains apart.
#pragma once

namespace deniable {

struct ChainPlace {
  int chain;       // 0 .. K-1
  long long step;  // 1, 2, ... within the chain (the learning rate's t)
};

inline ChainPlace ChainOfRound(long long round, int chains) {
  return {static_cast<int>((round - 1) % chains), (round - 1) / chains + 1};
}

}  // namespace deniable
