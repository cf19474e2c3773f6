"""Schema: the YAML file kinds a game folder holds, documented from their models.

`pnpgen schema` topics, JSON Schemas for editors, docs/reference.md, the `pnpgen new` scaffold
and the bundled example games (`pnpgen examples`, `pnpgen new --example`)."""
