"""melds audit: a rule document's contradictions, gaps and assumptions, found through its ruleset
(:mod:`solver.audit.run`), reported as text, Markdown or JSON (:mod:`solver.audit.report`)."""
