-- The demo site a fresh `npm start` seeds is marked, so the setup checklist can say what is still demo
-- and "Remove demo content" deletes exactly that (issue 33).
ALTER TABLE posts ADD COLUMN demo boolean NOT NULL DEFAULT false;
ALTER TABLE downloads ADD COLUMN demo boolean NOT NULL DEFAULT false;
