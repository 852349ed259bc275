import { t } from './texts.js';

// A refusal from the server in the page's own words (and language) when the
// page knows its code: the server's message is English and meant for
// developers ("this invitation code is unknown or has already been used ...").
// Other errors keep the server's message.
const WORDS = {
  invitation_invalid: () => t('inviteInvalid'),
  invitation_required: () => t('tokenMissing'),
  token_used: () => t('tokenUsed'),
  token_invalid: () => t('tokenInvalid'),
  model_complete: () => t('modelComplete'),
};

export function errorInWords(error) {
  const words = WORDS[error?.code];
  return words ? words() : error?.message ?? String(error);
}
