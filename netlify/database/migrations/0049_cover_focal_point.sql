-- A cover's focal point (issue 41 point 5): where the owner clicked on the preview, as percentages
-- of the image's width and height from its top left. Every crop (the cards' 1200×630, the featured
-- card's column) centres on it as far as the crop allows. NULL: the middle, as before.
ALTER TABLE posts
  ADD COLUMN featured_image_focus_x smallint CHECK (featured_image_focus_x BETWEEN 0 AND 100),
  ADD COLUMN featured_image_focus_y smallint CHECK (featured_image_focus_y BETWEEN 0 AND 100),
  ADD CONSTRAINT posts_featured_image_focus_pair CHECK ((featured_image_focus_x IS NULL) = (featured_image_focus_y IS NULL));
