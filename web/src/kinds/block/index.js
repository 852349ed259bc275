// A block of categorical attributes answered together ("type": "block",
// "attributes": [{id, text, options}], "mechanism": {"name": "pmoue",
// "epsilon_per_attribute": e, "share_bounds"}, "joint_order"): each
// respondent answers any of the attributes and says how private each should
// be; their budget m × e (m answered) is split over the answered attributes
// from those choices alone, and each answer is sent as OUE bits at its share.
// Estimated as one frequency per option of each attribute, and joints
// (cross-tabulations) of a few attributes.
// Its pages: survey.js, create.js, dashboard.js (see ../registry.js).
export const name = 'block';
