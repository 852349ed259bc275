import { el, setText } from '../shared/dom.js';
import { requestAnalysis } from './analysis-request.js';

// Several questions asked openly can single a person out together: when
// respondents gave combinations of open answers that fewer than 5 share, the
// dashboard says so (the server counts them: ?combinations=open; breakdowns
// and cross-tabs already hide those groups). Nothing when there is no open
// categorical question, or no small combination.
export function createOpenCombinationsNotice(surveyId) {
  const notice = el('p', { class: 'notice notice-warning', testid: 'open-combinations-warning', hidden: true, role: 'status' });
  let controller = null;
  return {
    element: notice,
    async refresh() {
      controller?.abort();
      controller = new AbortController();
      try {
        const result = await requestAnalysis(surveyId, { combinations: 'open' }, { signal: controller.signal });
        notice.hidden = !result.warning;
        setText(notice, result.warning ?? '');
      } catch {
        notice.hidden = true;  // not computable now (busy, no rights): the breakdowns still hide small groups
      }
    },
  };
}
