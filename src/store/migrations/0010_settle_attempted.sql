-- Set just before the facilitator's settle is called. Absent on resume: nothing was sent, so
-- settling is safe; present: the outcome is read on chain (authorizationState), never re-sent.
ALTER TABLE submissions ADD COLUMN settle_attempted_at timestamptz;
