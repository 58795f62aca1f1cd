-- SPDX-License-Identifier: Apache-2.0
-- p99 of every span per firmware version (docs/FLEET.md). Nearest rank, as `evrec stats`: the
-- ceil(99 n / 100)-th smallest duration of the n complete spans (flags = 0). Only listed recordings.
-- The group is the first column: replace `fw AS grp` by `recording_id AS grp` for one line per recording.
SELECT fw AS grp, name AS span, count() AS count,
       arraySort(groupArray(dur))[toUInt64(intDiv(99 * count() + 99, 100))] AS p99_ns,
       arraySort(groupArray(dur_ticks))[toUInt64(intDiv(99 * count() + 99, 100))] AS p99_ticks
FROM spans
WHERE flags = 0 AND recording_id GLOBAL IN (SELECT recording_id FROM recordings)
GROUP BY grp, span
ORDER BY grp, span
