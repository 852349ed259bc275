// A question answered by a number in a range ("type": "numeric", "range",
// optional "unit"): randomised on the respondent's device by RVNS, Square
// Wave, Laplace, Duchi, Piecewise or Hybrid, estimated as a distribution
// (density, histogram, summary statistics with intervals).
// Its pages: survey.js, create.js, dashboard.js (see ../registry.js).
export const name = 'numeric';
