"""The ground every layer stands on: errors and exit codes, the deck and its notation, rulesets
read from YAML (the shared sections; a game reads its own), puzzle and state files, results, the
move framework, and the Game protocol with the registry that finds a game by name."""
