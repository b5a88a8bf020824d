raise RuntimeError("files starting with _ must be skipped")
