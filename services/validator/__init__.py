"""The replay validator: every win rechecked from its log (verdict, queue, workers, submitter, replay files)."""
