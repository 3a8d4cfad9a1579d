"""Tools built on the core: doctor, explain, diff, checklists and listings. They read records
and evidence and explain decisions; none of them grants authority or writes host records."""
