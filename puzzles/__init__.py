"""Bundled puzzle files (YAML data), one folder per ruleset."""
