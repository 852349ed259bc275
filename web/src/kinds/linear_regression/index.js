// A linear model over earlier numeric questions ("type": "linear_regression",
// "target", "features", "epsilon", optional "mechanism" (piecewise or duchi),
// "batch", "ridge", "learning_rate", "clip"), trained across rounds of
// respondents: the model's coefficients are public state (GET .../state);
// each respondent's device computes the gradient of its own answers at those
// coefficients, clips it, and sends one component chosen at random, perturbed
// at ε, for the current round. A round closes after "batch" reports and the
// server takes a gradient step of that round's chain (rounds are dealt to
// "chains" independent chains in turn). Estimated as the chains' average
// coefficients (in the variables' units) with 95% intervals from their
// disagreement, and their path by round.
// Its pages: survey.js, create.js, dashboard.js (see ../registry.js).
export const name = 'linear_regression';
