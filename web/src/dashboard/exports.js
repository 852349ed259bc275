import { bearer, requestBlob, surveyPath } from '../shared/api.js';
import { el } from '../shared/dom.js';
import { downloadBlob } from '../shared/download.js';
import { loadAdminToken } from '../shared/admin-token.js';

// CSV (from the server, with the same estimator and bin width as the page)
// and JSON (the results document on screen) exports.
export function createExports(surveyId, currentResults, onError, queryString = () => '') {
  const csvPath = () => surveyPath(surveyId, `/results.csv${queryString()}`);
  const csvLink = el('a', {
    class: 'button', href: csvPath(), download: `${surveyId}-results.csv`, testid: 'export-csv', text: 'Download CSV',
  });
  // A plain link cannot carry the Authorization header: with a token, fetch it.
  csvLink.addEventListener('click', async (event) => {
    csvLink.href = csvPath();
    const token = loadAdminToken();
    if (!token) return;
    event.preventDefault();
    try {
      downloadBlob(await requestBlob(csvPath(), { headers: bearer(token) }), `${surveyId}-results.csv`);
    } catch (error) {
      onError(`The CSV export failed: ${error.message}`);
    }
  });
  const jsonButton = el('button', { type: 'button', class: 'button', testid: 'export-json', text: 'Download JSON' });
  jsonButton.addEventListener('click', () => {
    const results = currentResults();
    if (!results) return;
    const blob = new Blob([`${JSON.stringify(results, null, 2)}\n`], { type: 'application/json' });
    downloadBlob(blob, `${surveyId}-results.json`);
  });
  return el('div', { class: 'exports', role: 'group', 'aria-label': 'Export the results' }, [csvLink, jsonButton]);
}
