// Mantine's styles, per component, so a first load carries only what it shows. This file has
// what the frame and the account pages use; a screen using another component imports that
// component's stylesheet beside it (e.g. `import '@mantine/core/styles/Table.css'`), and the
// build puts it in that screen's chunk.
import '@mantine/core/styles/baseline.css'
// Needed: the provider injects only the variables that differ from these defaults.
import '@mantine/core/styles/default-css-variables.css'
import '@mantine/core/styles/global.css'
import '@mantine/core/styles/UnstyledButton.css'
import '@mantine/core/styles/VisuallyHidden.css'
import '@mantine/core/styles/Paper.css'
import '@mantine/core/styles/CloseButton.css'
import '@mantine/core/styles/Group.css'
import '@mantine/core/styles/Stack.css'
import '@mantine/core/styles/Flex.css'
import '@mantine/core/styles/Center.css'
import '@mantine/core/styles/Loader.css'
import '@mantine/core/styles/Input.css'
import '@mantine/core/styles/InlineInput.css'
import '@mantine/core/styles/PasswordInput.css'
import '@mantine/core/styles/ActionIcon.css'
import '@mantine/core/styles/Alert.css'
import '@mantine/core/styles/Anchor.css'
import '@mantine/core/styles/Button.css'
import '@mantine/core/styles/Code.css'
import '@mantine/core/styles/Image.css'
import '@mantine/core/styles/Text.css'
import '@mantine/core/styles/Title.css'
import './global.css'
