"""The command line, one module a command: parse, ask the game through the Game protocol, render.

Each module registers its command on the ``main`` group of :mod:`solver.commands.group`; cli.py
at the top of the repository is the entry point that gathers them.
"""
