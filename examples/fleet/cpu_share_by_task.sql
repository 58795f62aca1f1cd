-- SPDX-License-Identifier: Apache-2.0
-- Share of each task (a span's track: the demo's FrameStage per thread, a kernel trace's
-- TaskRunning per task) in the time its span covers, across devices, per firmware version
-- (docs/FLEET.md). Complete spans only, as `evrec stats` totals them per track.
-- The group is the first column: replace `fw AS grp` by `recording_id AS grp` for one line per recording.
SELECT grp, span, task, busy_ticks, busy_ns, round(100 * busy_ns / total_ns, 3) AS share_pct
FROM
(
    SELECT grp, span, groupArray(task) AS tasks, groupArray(busy_ticks) AS bt, groupArray(busy_ns) AS bn,
           sum(busy_ns) AS total_ns
    FROM
    (
        SELECT fw AS grp, name AS span, track_name AS task, sum(dur_ticks) AS busy_ticks, sum(dur) AS busy_ns
        FROM spans
        WHERE flags = 0 AND has_track = 1 AND recording_id GLOBAL IN (SELECT recording_id FROM recordings)
        GROUP BY grp, span, task
    )
    GROUP BY grp, span
)
ARRAY JOIN tasks AS task, bt AS busy_ticks, bn AS busy_ns
ORDER BY grp, span, task
