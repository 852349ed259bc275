// Questions "answered in confidence" (central differential privacy): the
// organisation receives the answer as given and publishes only releases with
// added noise, which together spend at most the question's budget. A trust
// model, not a kind: categorical and histogram questions may have it (their
// kinds' create modules say so with `supportsConfidential`). Every page tells
// such a question by its capability, never by its type:
//   a definition's question: "privacy": "central" (no "mechanism");
//   core.parseSurvey's summary and a results entry: privacy.trust "central";
//   a results entry: also "trust": "central".
//
// This folder is the whole web side of that trust model, one file per page:
//   trust.js       telling such a question (every page);
//   create.js      the creation page's budget line and release advisor;
//   survey.js      the survey page's trust notice, line and report entry
//                  (its words in survey-texts.js, in every language);
//   dashboard.js   the dashboard's releases panel, with its parts
//                  dashboard-release.js (a release's bars and table),
//                  dashboard-chart.js, dashboard-postprocess.js and
//                  dashboard-admin.js (release form, exact counts).
export const CENTRAL = 'central';

export function isCentral(question) {
  if (!question) return false;
  return question.privacy === CENTRAL || question.privacy?.trust === CENTRAL || question.trust === CENTRAL;
}

