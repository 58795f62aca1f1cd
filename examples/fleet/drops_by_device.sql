-- SPDX-License-Identifier: Apache-2.0
-- Events lost per device (docs/FLEET.md): dropped with the buffer full, overwritten in a cyclic
-- buffer, and lost to damage (records known lost; damage of unknown extent counts in `damaged_ranges`).
-- The group is the first column: replace `device AS grp` by `recording_id AS grp` for one line per recording.
SELECT device AS grp,
       sumIf(count, kind = 'dropped') AS dropped,
       sumIf(count, kind = 'overwritten') AS overwritten,
       sumIf(count, kind = 'damage') AS damaged_records,
       countIf(kind = 'damage') AS damaged_ranges
FROM losses
WHERE recording_id GLOBAL IN (SELECT recording_id FROM recordings)
GROUP BY grp
ORDER BY grp
