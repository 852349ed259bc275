// A rating grid ("type": "grid", "items": [...], "scale": [lowest, ..., highest],
// "mechanism": {"name": "ordinal" | "grr", "epsilon": e}): several items rated
// on one ordered scale, each row randomised on the respondent's device at
// e / items (the whole grid at e), estimated per item as its mean position and
// its distribution over the scale.
// Its pages: survey.js, create.js, dashboard.js (see ../registry.js).
export const name = 'grid';
