/* An email's attachments are stored uncompressed, as a received email's source (0028) and an uploaded file (0015) are: most are compressed formats already, and pglz's attempt at one is time taken from the process that stores it (on PGlite, the server's own event loop). Applies to attachments stored from now on. */
ALTER TABLE "email_attachments" ALTER COLUMN "content" SET STORAGE EXTERNAL;
