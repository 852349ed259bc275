import { el } from '../shared/dom.js';
import { downloadBlob } from '../shared/download.js';
import { analysisCsv, kindOf } from './analysis-csv.js';

// "Download CSV" (a tidy flattening, analysis-csv.js) and "Download JSON" (the
// document as served) of what a panel shows; disabled until it shows something.
export function createAnalysisDownloads(surveyId, testid, current) {
  const csv = el('button', { type: 'button', class: 'button button-small', testid: `${testid}-csv`, text: 'Download CSV', disabled: true });
  const json = el('button', { type: 'button', class: 'button button-small', testid: `${testid}-json`, text: 'Download JSON', disabled: true });
  const name = (spec, extension) => `${surveyId}-${kindOf(spec)}-${specName(spec)}.${extension}`;
  csv.addEventListener('click', () => {
    const shown = current();
    if (!shown) return;
    downloadBlob(new Blob([analysisCsv(shown.document, shown.spec)], { type: 'text/csv' }), name(shown.spec, 'csv'));
  });
  json.addEventListener('click', () => {
    const shown = current();
    if (!shown) return;
    downloadBlob(new Blob([`${JSON.stringify(shown.document, null, 2)}\n`], { type: 'application/json' }), name(shown.spec, 'json'));
  });
  return {
    element: el('div', { class: 'exports', role: 'group', 'aria-label': 'Download this analysis' }, [csv, json]),
    setEnabled(enabled) {
      csv.disabled = !enabled;
      json.disabled = !enabled;
    },
  };
}

function specName(spec) {
  if (spec.by !== undefined) return `${spec.question}-by-${spec.by}`;
  if (spec.cross !== undefined) return spec.cross.join('-x-');
  return `${spec.regress}-on-${spec.on.join('-')}`;
}
