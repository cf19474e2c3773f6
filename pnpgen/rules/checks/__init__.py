"""The rule vocabulary: one small module per check. Each module has `Spec` (the YAML value
it takes), `validate(ctx, spec)` (is the rule itself sound: known fields, decks, values)
and `evaluate(ctx, spec, cards)` (yield a Finding per problem)."""

from . import allowed, count, count_by, each, grid, hexmap, names, refers, required, same_back, same_set, trails, unique

CHECKS = {
    "count": count,
    "count_by": count_by,
    "unique": unique,
    "names": names,
    "each": each,
    "required": required,
    "allowed": allowed,
    "same_set": same_set,
    "refers": refers,
    "same_back": same_back,
    "grid": grid,
    "trails": trails,
    "hexmap": hexmap,
}
