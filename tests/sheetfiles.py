"""Write card sheets for tests: XLSX with openpyxl, ODS as the smallest archive calamine and
LibreOffice read (a mimetype, a manifest and content.xml; no ODS writer is a well-kept
library), CSV as text. A row's cells are str, int, float, bool or None (an empty cell); in ODS
a (value, n) pair stands for the value repeated across n columns."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import openpyxl

_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')
_MANIFEST = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
             'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
             '<manifest:file-entry manifest:full-path="/" '
             'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
             '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
             '</manifest:manifest>')


def write_xlsx(path: Path, sheets: dict[str, list[list]]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def _ods_cell(value, repeat: int = 1) -> str:
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    if value is None:
        return f"<table:table-cell{rep}/>"
    if isinstance(value, bool):
        kind = f'office:value-type="boolean" office:boolean-value="{str(value).lower()}"'
    elif isinstance(value, (int, float)):
        kind = f'office:value-type="float" office:value="{value}"'
    else:
        kind = 'office:value-type="string"'
    return f"<table:table-cell{rep} {kind}><text:p>{escape(str(value))}</text:p></table:table-cell>"


def write_ods(path: Path, sheets: dict[str, list[list]], row_repeats: dict[int, int] | None = None) -> Path:
    """`row_repeats`: row index -> how many rows that row stands for."""
    body = ""
    for name, rows in sheets.items():
        body += f"<table:table table:name={quoteattr(name)}>"
        for i, row in enumerate(rows):
            repeat = (row_repeats or {}).get(i, 1)
            attrs = f' table:number-rows-repeated="{repeat}"' if repeat > 1 else ""
            cells = "".join(_ods_cell(*c) if isinstance(c, tuple) else _ods_cell(c) for c in row)
            body += f"<table:table-row{attrs}>{cells}</table:table-row>"
        body += "</table:table>"
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NS} office:version="1.2">'
               f"<office:body><office:spreadsheet>{body}</office:spreadsheet></office:body>"
               "</office:document-content>")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("META-INF/manifest.xml", _MANIFEST, zipfile.ZIP_DEFLATED)
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
    return path


def write_csv(path: Path, rows: list[list], separator: str = ",", bom: bool = False) -> Path:
    def cell(value):
        text = "" if value is None else str(value)
        return '"' + text.replace('"', '""') + '"' if any(c in text for c in f'"\n{separator}') else text
    text = "\r\n".join(separator.join(cell(v) for v in row) for row in rows) + "\r\n"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path
