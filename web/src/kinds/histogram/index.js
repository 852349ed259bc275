// A question answered by a number in a range that several data consumers
// want binned their own way ("type": "histogram", "range", optional "unit",
// "histograms": [{name, bins | edges}]): their edges merge into one set of
// fine ranges, randomised on the respondent's device by SUE or OUE over
// those ranges, and every consumer's histogram is estimated from the same
// reports (plus bins chosen after collection, and the quartiles).
// Its pages: survey.js, create.js, dashboard.js (see ../registry.js).
export const name = 'histogram';
