"""Maps: the notation of hex, square-grid and trail boards.

Parsing, geometry and the playability questions a map rule asks; pure data, no drawing."""
