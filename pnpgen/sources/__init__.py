"""Sources: read YAML (and later spreadsheets) safely, remembering where every value was written.

The strict base model every file kind is declared with, and validation errors as `file:line` problems."""
