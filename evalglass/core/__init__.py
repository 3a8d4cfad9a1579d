"""The pure core: validity, authority, decision and the scorecard, computed from typed records
and evidence. No I/O here, and nothing here renders."""
