-- An optional email subject per post (issue 40 point 5): the newsletter's subject line when set,
-- the title otherwise (null). A line an inbox shows is not always the best page title.
ALTER TABLE posts ADD COLUMN email_subject text;
