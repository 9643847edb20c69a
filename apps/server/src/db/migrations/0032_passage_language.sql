/* Reserved: filled in by the work that owns it. */
SELECT 1;
