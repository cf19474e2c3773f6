"""The PDF edge: laid-out operations and imposed sheets drawn with reportlab.

Millimetres become points only here."""
