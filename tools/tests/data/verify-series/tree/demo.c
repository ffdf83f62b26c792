static int complete(struct thing *t)
{
	bool again = true;
	if (queue_empty(t)) {
		/* only this CPU owns t */
		list_del(&t->node);
		t->state = 0;
		again = false;
	}
	return again;
}

static void other(struct thing *t)
{
	t->state &= FLAG_KEEP;
}

static void teardown(struct thing *t)
{
	stop_timer(t);
	put_ref(t);
	drain(t);
	if (t->old_guard)
		release_guard(t);
	wake_waiters(t);
	free_thing(t);
	return;
}
