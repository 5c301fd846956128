"""Hearts with friends: tables of up to four people, bots in the empty seats, live updates."""
