"""Schema: the YAML file kinds a game folder holds, documented from their models.

`pnpgen schema` topics, JSON Schemas for editors, docs/reference.md and the `pnpgen new` scaffold."""
