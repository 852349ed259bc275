// A linear model over earlier numeric questions ("type": "linear_regression",
// "target", "features", "epsilon", optional "mechanism" (piecewise or duchi),
// "batch", "ridge", "learning_rate", "clip"), trained across rounds of
// respondents: the model's coefficients are public state (GET .../state);
// each respondent's device computes the gradient of its own answers at those
// coefficients, clips it, and sends one component chosen at random, perturbed
// at ε, for the current round. A round closes after "batch" reports and the
// server takes a gradient step. Estimated as the coefficients (in the
// variables' units), their path by round and how much they still move.
// Its pages: survey.js, create.js, dashboard.js (see ../registry.js).
export const name = 'linear_regression';
