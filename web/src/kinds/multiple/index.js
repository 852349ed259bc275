// A question answered by choosing every option that applies ("type":
// "multiple"): the chosen set is randomised on the respondent's device as a
// set (per-option bits or padding and sampling, core/kinds/multiple/), with
// one ε for the whole set, and estimated as each option's share and the
// distribution of the number chosen.
// Its pages: survey.js, create.js, dashboard.js (see ../registry.js).
export const name = 'multiple';
