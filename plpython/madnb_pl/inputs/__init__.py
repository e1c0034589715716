"""Stage 1, inputs: what a call asks for, resolved and checked before any work proportional to the data.
The MADlib face's arrays (:mod:`.arrays`: numAttrs, numeric indices, smoothing, the label rules, into one
``Training``), ordinary columns (:mod:`.columns`: features, roles, types, collations, the values' text form,
into one ``ColumnTraining``), and the privacy parameters (:mod:`.privacy_parameters`: epsilon, delta,
bounds, domain kind).  Every user-facing message about a bad argument is raised here."""
