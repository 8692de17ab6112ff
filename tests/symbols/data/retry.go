package retry

const MaxAttempts = 4

type Retrier struct {
	Attempts int
}

func (r *Retrier) Call(fn func() error) error {
	var err error
	for i := 0; i < r.Attempts; i++ {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}
