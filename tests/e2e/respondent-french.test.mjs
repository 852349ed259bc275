// A survey in French ("language": "fr") with every kind of question and every
// trust model (randomised, in confidence, asked openly): the respondent's page says everything in French, at every
// step (the questions, the review of the answers, the prepared report, every
// "Technical details" disclosure opened, the closed page), with French number
// formats. The survey's own text is French too, so any English word found on
// the page is a fixed text that was not translated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { forgetDevice } from './support/device.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { requestJson } from './support/server.mjs';
import { prepareFromReview, reviewAnswers } from './support/survey-steps.mjs';

const fixture = useServerAndBrowser();
const admin = () => ({ Authorization: `Bearer ${fixture.server.adminToken}` });

const SURVEY = {
  format: 'deniable.survey/v1', id: 'enquete-fr', version: 1, language: 'fr', access: 'open', results: 'public',
  title: 'Santé et travail', description: 'Une enquête **courte** sur votre santé.',
  questions: [
    { id: 'fume', text: 'Fumez-vous ?', type: 'categorical', options: ['Oui', 'Non'], mechanism: { name: 'grr', epsilon: 1 } },
    { id: 'sport', text: 'Quel sport ?', type: 'categorical', options: ['Course', 'Natation', 'Vélo'], mechanism: { name: 'oue', epsilon: 2 } },
    { id: 'repas', text: 'Quel repas sautez-vous ?', type: 'categorical', options: ['Petit-déjeuner', 'Déjeuner', 'Dîner', 'Aucun'],
      mechanism: { name: 'negative', reported_options: 2 } },
    { id: 'sommeil', text: 'Combien d’heures dormez-vous ?', type: 'numeric', range: [0, 12], unit: 'h', mechanism: { name: 'square_wave', epsilon: 2 } },
    { id: 'imc', text: 'Votre IMC ?', type: 'numeric', range: [10, 60], unit: 'kg/m2', mechanism: { name: 'rvns', window: 5, values: 2, window_mode: 'fresh' } },
    { id: 'heures', text: 'Heures travaillées la semaine dernière ?', type: 'numeric', range: [0, 80], unit: 'h', mechanism: { name: 'piecewise', epsilon: 1 } },
    { id: 'paie', text: 'Votre paie de la semaine ?', type: 'numeric', range: [0, 4000], unit: 'EUR',
      mechanism: { name: 'levels', boundaries: [300, 2500], epsilons: [0.5, 2, 0.5], variant: 'paper' } },
    { id: 'salaire', text: 'Votre salaire annuel ?', type: 'histogram', range: [0, 300000], unit: 'EUR',
      histograms: [{ name: 'tiers', bins: 3 }], mechanism: { name: 'oue', epsilon: 3 } },
    { id: 'profil', text: 'Vous', type: 'block',
      attributes: [
        { id: 'age', text: 'Votre tranche d’âge', options: ['18-34', '35-49', '50+'] },
        { id: 'diplome', text: 'Votre diplôme', options: ['Bac', 'Licence', 'Master'] },
      ],
      mechanism: { name: 'pmoue', epsilon_per_attribute: 1.5 } },
    { id: 'modele', text: 'Paie selon les heures', type: 'linear_regression', target: 'paie', features: ['heures'], epsilon: 1, batch: 3 },
    { id: 'drogue', text: 'Quelle substance ?', type: 'categorical', options: ['Cannabis', 'Autre', 'Aucune'], privacy: 'central', budget: 1 },
    { id: 'loisir', text: 'Un loisir ?', type: 'categorical', options: ['Lecture', 'Cinéma'], required: false, mechanism: { name: 'grr', epsilon: 1 } },
    // Asked openly: sent as given (the notice, the statement, the line and the report entry in French).
    { id: 'region', text: 'Votre région ?', type: 'categorical', options: ['Nord', 'Sud'], privacy: 'open' },
    { id: 'naissance', text: 'Votre année de naissance ?', type: 'numeric', range: [1920, 2010], step: 1, privacy: 'open' },
  ],
};

// Words of English fixed text that French never uses. Mechanism names
// ("Square Wave", "Piecewise", "Duchi et al.") and the JSON report are allowed.
const ENGLISH = /\b(the|your|you|this|that|these|is|are|and|of|to|with|each|when|which|not|only|from|sent|answer|answers|answered|report|randomised|private|privacy|none|skipped|range|ranges)\b/i;

// Every disclosure opened, then the page's visible text, line by line,
// without the raw JSON report; the lines with an English word.
async function englishLines(page) {
  return page.evaluate((source) => {
    for (const details of document.querySelectorAll('details')) details.open = true;
    const json = document.querySelector('[data-testid="report-json"]')?.innerText ?? '';
    const pattern = new RegExp(source, 'i');
    return document.body.innerText.replace(json, '').split('\n').map((line) => line.trim())
      .filter((line) => line && pattern.test(line.replace(/Square Wave|Piecewise|Duchi et al\./g, '')));
  }, ENGLISH.source);
}

async function assertFrench(page, step) {
  assert.deepEqual(await englishLines(page), [], `English text on the French page (${step})`);
}

test('a French survey speaks French at every step, with French numbers', async () => {
  const created = await requestJson(fixture.server.baseUrl, '/api/surveys', { method: 'POST', json: SURVEY, headers: admin() });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await page.getByTestId('survey-form').waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'fr');
  await assertFrench(page, 'the questions');
  assert.match(await page.getByTestId('trust-notice').textContent(), /Qui voit vos réponses/);
  assert.match(await page.getByTestId('trust-open').textContent(), /^Posées ouvertement : envoyées telles que vous les donnez \(2 questions\)/);
  assert.match(await page.getByTestId('privacy-open-statement').textContent(), /gardent leur budget de confidentialité \(ε\) quelles que soient vos réponses ouvertes/);

  // Answers.
  await page.getByTestId('option-fume-0').check();
  await page.getByTestId('option-sport-2').check();
  await page.getByTestId('option-repas-1').check();
  await page.getByTestId('number-sommeil').fill('7,5');
  await page.getByTestId('number-imc').fill('23,4');
  await page.getByTestId('number-heures').fill('35');
  await page.getByTestId('number-paie').fill('900');
  await page.getByTestId('number-salaire').fill('42000');
  await page.getByTestId('option-profil-age-1').check();
  await page.getByTestId('option-profil-diplome-2').check();
  await page.getByTestId('option-drogue-2').check();
  await page.getByTestId('skip-loisir').check();
  await page.getByTestId('option-region-1').check();
  await page.getByTestId('number-naissance').fill('1984');
  // A typed number outside its range: the message is French, with the range in French numbers.
  await page.getByTestId('number-heures').fill('95');
  await page.getByTestId('number-heures').press('Tab');
  assert.match(await page.getByTestId('number-heures-message').textContent(), /80\u00a0h/);
  await assertFrench(page, 'a number outside its range');
  await page.getByTestId('review-answers').click();
  assert.match(await page.getByTestId('answer-error').textContent(), /^Veuillez corriger la question 6/);
  await assertFrench(page, 'the refusal');
  await page.getByTestId('number-heures').fill('35');
  await page.getByTestId('number-heures').press('Tab');

  await reviewAnswers(page);
  assert.equal(await page.getByTestId('review-value-sommeil').textContent(), '7,5\u00a0h');
  assert.equal(await page.getByTestId('review-value-loisir').textContent(), 'question passée');
  await assertFrench(page, 'the review');
  await screenshot(page, 'desktop-respondent-french-review');

  await prepareFromReview(page);
  assert.match(await page.locator('#report-heading').textContent(), /^Votre rapport/);
  await assertFrench(page, 'the prepared report');
  await screenshot(page, 'desktop-respondent-french-report');
  await page.setViewportSize({ width: 390, height: 844 });
  await assertFits(page, 'the French report on a phone');
  await screenshot(page, 'phone-respondent-french-report');

  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  assert.match(await page.getByTestId('send-status').textContent(), /Merci/);
  await assertFrench(page, 'after sending');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();

  // Closed at a time: said in French with a French date.
  const closed = await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/status`, {
    method: 'POST', json: { status: 'open', closes_at: '2020-01-02T03:04:05Z' }, headers: admin(),
  });
  assert.equal(closed.status, 200, JSON.stringify(closed.body));
  const again = await openRecordedPage(fixture.browser.context);
  await again.page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await again.page.getByTestId('already-answered').waitFor();
  assert.match(await again.page.getByTestId('already-answered').textContent(), /Vous avez déjà répondu à ce questionnaire sur cet appareil le/);
  await assertFrench(again.page, 'already answered');
  await forgetDevice(again.page);
  await again.page.getByTestId('survey-closed').waitFor();
  assert.match(await again.page.getByTestId('survey-closed').textContent(), /Ce questionnaire a fermé le 2 janvier 2020/);
  await assertFrench(again.page, 'the closed survey');
  assert.deepEqual(unexpectedProblems(again.log), []);
  await again.page.close();
});
