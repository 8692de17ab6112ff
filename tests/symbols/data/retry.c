#include <stdio.h>
#define MAX_RETRIES 4
#define BACKOFF(n) \
	(100 << (n))

static const int BUDGET_MS = 300;

struct retrier {
	int attempts;
};

static int retry_call(struct retrier *r, int (*fn)(void))
{
	int i;

	for (i = 0; i < r->attempts; i++) {
		if (fn() == 0)
			return 0;
		sleep_ms(BACKOFF(i));
	}
	return -1;
}

int main(int argc, char **argv)
{
	return retry_call(NULL, NULL);
}
