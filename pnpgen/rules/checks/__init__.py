"""The rule vocabulary: one small module per check, found here by name.

Each module of this package except `base` is one check: its file name is the rule's YAML
key. It has `Spec` (the YAML value it takes), `DOC` (what the key holds, for the reference),
`ORDER` (where the key stands among a rule's keys), `validate(ctx, spec)` (is the rule
itself sound: known fields, decks, values) and `evaluate(ctx, spec, cards)` (yield a Finding
per problem); optionally `COMPANIONS`, rule keys that go with it only. The Rule model
(pnpgen.rules.ruleset) is built from them: adding a check is adding a file."""

import importlib
import pkgutil

_MODULES = [importlib.import_module(f"{__name__}.{info.name}")
            for info in pkgutil.iter_modules(__path__) if info.name != "base"]

CHECKS = {module.__name__.rsplit(".", 1)[1]: module for module in sorted(_MODULES, key=lambda m: m.ORDER)}
"""Check name (its rule key) -> its module, in ORDER."""
