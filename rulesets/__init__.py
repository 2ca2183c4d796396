"""Bundled rulesets (YAML data) and the ruleset JSON Schema."""
