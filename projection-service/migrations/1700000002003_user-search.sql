-- Up Migration
-- User search matches a prefix of the email, the first or the last name, case-insensitively:
-- `lower(col) LIKE 'prefix%'` uses these (text_pattern_ops works whatever the collation).
CREATE INDEX rm_users_search_email ON rm_users (lower(email) text_pattern_ops);
CREATE INDEX rm_users_search_first_name ON rm_users (lower(first_name) text_pattern_ops);
CREATE INDEX rm_users_search_last_name ON rm_users (lower(last_name) text_pattern_ops);

-- Down Migration
DROP INDEX rm_users_search_last_name;
DROP INDEX rm_users_search_first_name;
DROP INDEX rm_users_search_email;
