/* A person's reply sent translated keeps what they wrote (docs/languages.md "Translation"); null on every other message. */
ALTER TABLE "messages" ADD COLUMN "original_content" text;
