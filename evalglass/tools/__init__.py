"""Tools built on the core: doctor, explain, diff, checklists, listings and calibration. They
read records and evidence and explain decisions; none of them grants authority or writes host
records."""
