"""The PDF edge: laid-out operations and imposed sheets drawn with reportlab (canvas, replay),
and for print shops the press's CMYK (colour) and PDF/X-1a files (pdfx).

Millimetres become points only here."""
