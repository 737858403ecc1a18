-- Issue 33, point 5: alt text for the featured image of a post and the thumbnail of a resource.
-- NULL: not described yet (every row from before this migration, an import whose source had none);
-- '': marked decorative by the owner; else the words. The pages render NULL as alt="" (never the
-- file name) and the dashboard shows it as "No alt text yet" (docs/decisions/0041-image-alt-text.md).
ALTER TABLE posts ADD COLUMN featured_image_alt text;
ALTER TABLE downloads ADD COLUMN thumbnail_alt text;
