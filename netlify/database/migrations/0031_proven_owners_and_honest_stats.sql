-- Issue 40, point 3 (docs/decisions/0055-who-starts-a-sequence.md): a resource's sequence starts only
-- for the owner of the address, shown by opening the download link emailed to it. Enrollments that
-- wait for a confirmation were made by the download form until now, for whoever's address was typed
-- in: they are dropped, so a confirmation starts none of them. Those made from now on wait only for
-- people who opened their emailed link.
DELETE FROM sequence_enrollments WHERE enrolled_at IS NULL;
