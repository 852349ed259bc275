// Said before the respondent starts, once this browser holds the survey's
// token: the invitation now lives in this browser (answer here; cleared data
// loses it), and what the organisers can and cannot link, in plain words. The
// protocol and the key's fingerprint are for readers who want them, behind a
// disclosure. `token`: {input, output, public_key}.
import { el } from '../shared/dom.js';
import { keyFingerprint } from './invitation-token.js';
import { t } from './texts.js';

export function renderInvitationKept(token) {
  return el('section', { class: 'card invitation-kept', testid: 'invitation-kept', 'aria-labelledby': 'kept-heading' }, [
    el('h2', { id: 'kept-heading', text: t('keptHeading') }),
    el('p', { testid: 'kept-body', text: t('keptBody') }),
    el('h3', { text: t('linkHeading') }),
    el('ul', { class: 'privacy-list', testid: 'kept-linkable' }, [
      el('li', { testid: 'kept-cannot', text: t('linkCannot') }),
      el('li', { testid: 'kept-can', text: t('linkCan') }),
    ]),
    el('details', { class: 'privacy-technical', testid: 'kept-technical' }, [
      el('summary', { text: t('technicalDetails') }),
      el('p', { class: 'hint', text: t('keptTechnical', keyFingerprint(token?.public_key) ?? t('keyUnknown')) }),
    ]),
  ]);
}
