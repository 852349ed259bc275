import { el } from '../shared/dom.js';
import { isCentral } from '../central/trust.js';
import { isOpen } from '../shared/open.js';
import { createBreakdown } from './analysis-breakdown.js';
import { createCrossTab } from './analysis-crosstab.js';
import { createRegression } from './analysis-regression.js';
import { createOpenCombinationsNotice } from './open-combinations.js';

// The analyses across questions on the dashboard: a "Break down by" picker in
// each question's panel (when the survey has an open categorical question to
// group by), and a cross-tab and a regression panel after the questions when
// the survey has questions they can use. Built once per survey structure from
// the results document's questions; computed only when the analyst asks.

export function createAnalyses(questions, { surveyId, interval }) {
  const context = { surveyId, interval };
  const estimated = questions.filter((question) => !isCentral(question));
  const entry = (question) => ({ id: question.id, text: question.text });
  const openCategorical = estimated.filter((question) => isOpen(question) && question.type === 'categorical');

  const breakdowns = new Map();
  for (const question of estimated) {
    const byChoices = openCategorical.filter((by) => by.id !== question.id).map(entry);
    if (byChoices.length > 0) breakdowns.set(question.id, createBreakdown(question, byChoices, context));
  }

  const categorical = estimated.filter((question) => question.type === 'categorical');
  const crossTab = categorical.length >= 2 ? createCrossTab(categorical.map(entry), context) : null;

  const randomisedCategorical = categorical.filter((question) => !isOpen(question));
  const openNumeric = estimated.filter((question) => isOpen(question) && question.type === 'numeric');
  const openQuestions = estimated.filter((question) => isOpen(question) && (question.type === 'categorical' || question.type === 'numeric'));
  const yesNo = randomisedCategorical.filter((question) => question.options?.length === 2);
  const outcomes = [
    ...randomisedCategorical.map((question) => ({ ...entry(question), kind: 'randomised' })),
    // An open categorical outcome is the ordinary logistic fit (no randomisation to undo).
    ...openCategorical.map((question) => ({ ...entry(question), kind: 'open-categorical' })),
    ...(yesNo.length > 0 ? openNumeric.map((question) => ({ ...entry(question), kind: 'open-numeric' })) : []),
  ];
  const covariates = [...openQuestions.map((question) => ({ ...entry(question), open: true })),
    ...yesNo.map((question) => ({ ...entry(question), open: false }))];
  // Outcomes with at least one question to explain them by (as the panel offers: analysis-regression.js).
  const usable = outcomes.filter((outcome) => covariates.some((covariate) =>
    covariate.id !== outcome.id && (covariate.open || outcome.kind === 'open-numeric')));
  const regression = usable.length > 0 ? createRegression(usable, covariates, context) : null;

  const panels = [crossTab, regression].filter(Boolean);
  const combinations = openCategorical.length > 0 ? createOpenCombinationsNotice(surveyId) : null;
  combinations?.refresh();
  const elements = [combinations?.element, ...panels.map((panel) => panel.element)].filter(Boolean);
  return {
    // The picker for a question's panel (null when there is nothing to group by).
    breakdownFor: (questionId) => breakdowns.get(questionId)?.element ?? null,
    element: elements.length ? el('div', { class: 'analysis-panels', testid: 'analysis-panels' }, elements) : null,
    // The interval choice changed: what is shown is computed again.
    refresh() {
      combinations?.refresh();
      for (const breakdown of breakdowns.values()) breakdown.refresh();
      for (const panel of panels) panel.refresh();
    },
    destroy() {
      for (const breakdown of breakdowns.values()) breakdown.destroy();
    },
  };
}
