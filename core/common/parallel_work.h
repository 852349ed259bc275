// Independent pieces of work that a caller may run at the same time.
//
// Why: a results document's bootstrap re-estimates the distribution 50 to 88
// times, each replicate independent of the others; on one core that is most
// of the 1 to 4 s a numeric question costs. core/ has no threads (its callers
// decide where work runs: the server has a bounded pool, the WebAssembly page
// has one thread), so core hands the pieces to a ParallelFor the caller
// injects, and each piece must depend only on its index: a replicate's draws
// come from (seed, index), never from a stream shared with the others, so the
// result is the same whichever thread ran which piece, and in what order.
#pragma once

#include <functional>

namespace deniable {

// Runs piece(0), ..., piece(count - 1), perhaps at the same time on several
// threads, and returns when all have finished. The pieces must write only to
// what is theirs (e.g. slot `index` of a vector sized beforehand) and read
// only what no piece writes; a piece must not throw.
using ParallelFor = std::function<void(int count, const std::function<void(int index)>& piece)>;

// `parallel`, or one piece after another on the calling thread when it is empty.
void RunPieces(const ParallelFor& parallel, int count, const std::function<void(int index)>& piece);

}  // namespace deniable
