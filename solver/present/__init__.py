"""Presentation: a :class:`~solver.core.result.Result` turned into output, text or JSON, in one way.

Text is in the documents' own notation (each game's presenter writes it with the helpers of
:mod:`solver.present.text`); JSON is the result's data, one object a line.
"""
