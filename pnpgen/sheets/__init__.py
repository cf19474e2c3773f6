"""Sheets: where cards and boards go on paper, pure geometry in millimetres.

Automatic imposition and token packing, custom sheet layouts, and tiling boards over pages."""
