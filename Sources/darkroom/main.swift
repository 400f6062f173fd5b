print("darkroom")
