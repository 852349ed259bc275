// A question answered by choosing one option among several ("type":
// "categorical", or no type): randomised on the respondent's device by GRR,
// OUE, SUE or the negative survey, estimated as one frequency per option.
// Its pages: survey.js, create.js, dashboard.js (see ../registry.js).
export const name = 'categorical';
